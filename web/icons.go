package web

// The icons under static/icons are drawn by package internal/icons; its
// test checks the committed files are what it draws.
//go:generate go run ../internal/icons/draw -out static/icons
