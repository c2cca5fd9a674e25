/**
 * One value per object, made on first use and dropped with the object (a WeakMap behind it): a
 * registry's metrics, a simulator's desks and state.
 */
export function onePer<K extends object, V>(make: (key: K) => V): (key: K) => V {
  const made = new WeakMap<K, V>();
  return (key) => {
    let v = made.get(key);
    if (v === undefined) {
      v = make(key);
      made.set(key, v);
    }
    return v;
  };
}
