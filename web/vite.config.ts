import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The dashboard's build: plain files under dist/web that the service serves at /. No inline script
// or style ends up in index.html, so the pages run under a CSP without 'unsafe-inline'.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 1024,
  },
});
