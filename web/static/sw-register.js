// Every page loads this module: it registers the service worker (/sw.js,
// whose scope is the whole site) once the page has loaded, so its first
// fetches do not compete with the page's. The worker keeps the app's files
// for offline use, shows the offline page when a page cannot load, and
// shows push notifications (notify-settings.js subscribes to them).

export const workerSupported = 'serviceWorker' in navigator;

function register() {
  navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch((e) => {
    console.warn('service worker not registered:', e && e.message);
  });
}

if (workerSupported) {
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
