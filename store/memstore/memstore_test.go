package memstore_test

import (
	"testing"

	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/memstore"
	"github.com/dicehall/dicehall/store/storetest"
)

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return memstore.New() })
}
