// A short sound when a notice says a match waits for the player now (unless turned off in
// the preferences: the bell's data-sound); data-rings counts them, for the page's tests.

import { changed } from "../lib/store.js";

// Notices that mean "a match waits for you now".
const RINGING = new Set(["turn", "match_ready", "challenge_accepted", "seek_taken"]);

export function startSound(store, bell) {
  let audio = null;
  // Browsers let a page make sound only after a click or key on it: the context is made
  // then, and a notice before that rings silently.
  const unlock = () => {
    if (audio === null && window.AudioContext) audio = new AudioContext();
  };
  document.addEventListener("pointerdown", unlock, { once: true });
  document.addEventListener("keydown", unlock, { once: true });
  store.subscribe((state, previous) => {
    if (previous === null || !changed(state, previous, "told") || !state.told) return;
    if (RINGING.has(state.told.kind) && bell.dataset.sound === "on") ring(bell, audio);
  });
}

function ring(bell, audio) {
  bell.dataset.rings = String(Number(bell.dataset.rings || 0) + 1);
  if (audio === null) return;
  const now = audio.currentTime;
  for (const [offset, pitch] of [[0, 660], [0.18, 880]]) {
    const tone = audio.createOscillator();
    const volume = audio.createGain();
    tone.frequency.value = pitch;
    volume.gain.setValueAtTime(0.0001, now + offset);
    volume.gain.exponentialRampToValueAtTime(0.18, now + offset + 0.02);
    volume.gain.exponentialRampToValueAtTime(0.0001, now + offset + 0.3);
    tone.connect(volume).connect(audio.destination);
    tone.start(now + offset);
    tone.stop(now + offset + 0.32);
  }
}
