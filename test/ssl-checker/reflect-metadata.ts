/**
 * The few Reflect metadata functions tsyringe (a dependency of @peculiar/x509) looks for at import time. No
 * reflect polyfill package is installed; this test-only stand-in keeps metadata in a WeakMap, which is all
 * tsyringe's registration needs. Import it before @peculiar/x509.
 */
type Store = Map<string | symbol, unknown>;
const metadata = new WeakMap<object, Store>();
const storeOf = (target: object): Store => {
  const known = metadata.get(target);
  if (known) return known;
  const store: Store = new Map();
  metadata.set(target, store);
  return store;
};

const reflect = Reflect as unknown as Record<string, unknown>;
if (typeof reflect.getMetadata !== 'function') {
  reflect.defineMetadata = (key: string | symbol, value: unknown, target: object) => {
    storeOf(target).set(key, value);
  };
  reflect.getOwnMetadata = (key: string | symbol, target: object) => metadata.get(target)?.get(key);
  reflect.getMetadata = (key: string | symbol, target: object) => {
    for (let t: object | null = target; t; t = Object.getPrototypeOf(t)) {
      const value = metadata.get(t)?.get(key);
      if (value !== undefined) return value;
    }
    return undefined;
  };
}
