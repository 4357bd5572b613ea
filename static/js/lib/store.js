// A page's one store: every part of the page is drawn from it.
//
// State is never changed in place: `update` makes a new state object from a patch, then
// tells every subscriber the new state and the one before, so each view redraws only when
// a part it reads is a different object. An update asked for while subscribers are being
// told waits its turn, so every subscriber sees the updates in order. A page's own state
// and what each key means are written beside its `emptyState` (match/store.js,
// notices/store.js).

export function createStore(initial) {
  let state = initial;
  const listeners = [];
  const queue = [];
  let telling = false;

  function update(change) {
    queue.push(change);
    if (telling) return;
    telling = true;
    try {
      while (queue.length) {
        const next = queue.shift();
        const patch = typeof next === "function" ? next(state) : next;
        if (!patch) continue;
        const previous = state;
        state = { ...state, ...patch };
        for (const listener of listeners) listener(state, previous);
      }
    } finally {
      telling = false;
    }
  }

  /** Call `listener(state, previous)` now (previous null) and after every update. */
  function subscribe(listener) {
    listeners.push(listener);
    listener(state, null);
  }

  return { get: () => state, update, subscribe };
}

/** Whether any of `keys` of the state is a different object than before (always at first). */
export function changed(state, previous, ...keys) {
  return previous === null || keys.some((key) => state[key] !== previous[key]);
}
