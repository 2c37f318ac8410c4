/** A promise that never rejects (so that nothing is left unhandled while it runs unawaited), unwrapped later. */
export function settled<T>(promise: Promise<T>): Promise<{ value(): T }> {
  return promise.then(
    (value) => ({ value: () => value }),
    (error: unknown) => ({
      value: () => {
        throw error;
      },
    }),
  );
}
