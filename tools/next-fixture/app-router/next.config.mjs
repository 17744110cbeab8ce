// Static export; Turbopack's root is this fixture folder, not the repository (which has its own lockfile).
export default { output: 'export', turbopack: { root: import.meta.dirname + '/..' } };
