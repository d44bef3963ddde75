/**
 * `T` with every property, array, map and set read-only, all the way down: the type of a value that is shared
 * between requests (the read model's cached values), so that a caller that would change it for everyone does not
 * compile. Functions and Dates are left as they are.
 */
export type DeepReadonly<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends Date
    ? T
    : T extends ReadonlyMap<infer K, infer V>
      ? ReadonlyMap<DeepReadonly<K>, DeepReadonly<V>>
      : T extends ReadonlySet<infer V>
        ? ReadonlySet<DeepReadonly<V>>
        : T extends ReadonlyArray<infer E>
          ? ReadonlyArray<DeepReadonly<E>>
          : T extends object
            ? { readonly [P in keyof T]: DeepReadonly<T[P]> }
            : T;
