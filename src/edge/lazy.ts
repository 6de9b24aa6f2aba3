/**
 * A value built on first use, for the parts of the service an idle shop never needs (the OAuth provider, the
 * MCP SDK, the UCP face): their loader is a dynamic import(), which the build (scripts/build.mjs) turns into a
 * chunk of its own that is read only then. Concurrent first callers share the one load; a load that failed is
 * forgotten, so the next call tries again instead of failing for the rest of the process's life.
 */
export function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}
