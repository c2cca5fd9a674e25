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

/**
 * A pure function of a string, remembered for the keys asked lately: computed on first use, the
 * memo emptied when it holds `max` keys (the callers ask about a handful of keys again and again:
 * the window times of the markets quoted, the vaults of the wallets, the signers' public keys).
 */
export function boundedMemo<V>(max: number, make: (key: string) => V): (key: string) => V {
  const made = new Map<string, V>();
  return (key) => {
    let v = made.get(key);
    if (v === undefined) {
      v = make(key);
      if (made.size >= max) made.clear();
      made.set(key, v);
    }
    return v;
  };
}
