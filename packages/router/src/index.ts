// Filled in by a later issue; the package exists so the workspace graph is complete.
export {};
