// One memo for values made once per object (a plan, a compiled module): a
// WeakMap, so what was made goes when its key does.

/** `make` of a key, made on the first call for that key and returned by every later one. */
export function oncePer<K extends object, V>(make: (key: K) => V): (key: K) => V {
  const made = new WeakMap<K, V>();
  return (key) => {
    let value = made.get(key);
    if (value === undefined) {
      value = make(key);
      made.set(key, value);
    }
    return value;
  };
}
