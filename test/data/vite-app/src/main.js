import { supabase } from './supabase.js';
// Lazy routes: customers and home share a chunk (Vite lists it in __vite__mapDeps), orders loads alone.
const routes = {
  '/klanten': () => import('./routes/customers.js'),
  '/bestellingen': () => import('./routes/orders.js'),
  '/': () => import('./routes/home.js'),
};
async function render() {
  const load = routes[location.pathname] ?? routes['/'];
  const page = await load();
  document.getElementById('root').textContent = JSON.stringify(await page.default(supabase));
}
render();
