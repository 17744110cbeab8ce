export function createClient(url, key) {
  const headers = { apikey: key, Authorization: `Bearer ${key}` };
  return {
    from(table) {
      return { select: (columns) => fetch(`${url}/rest/v1/${table}?select=${encodeURIComponent(columns)}`, { headers }).then((r) => r.json()) };
    },
  };
}
export const supabase = createClient(import.meta.env.VITE_SUPABASE_URL, import.meta.env.VITE_SUPABASE_ANON_KEY);
