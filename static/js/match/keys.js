// Keyboard shortcuts for the buttons under the board. Each button names its key in
// `aria-keyshortcuts` (the template lists them beside the board, and screen readers read
// them out), so the key does exactly what a click on the button would, and only while the
// button is there to click: the server's `may_<action>` flags and the turn being built
// decide that, as for the mouse.

export function startKeys(page) {
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
    // Letters typed into the chat are words, not commands.
    if (event.target.closest && event.target.closest("input, textarea, select, [contenteditable]")) return;
    if (!/^[a-z]$/i.test(event.key)) return;
    // Two buttons may share a key (the game's Take and the match double's): the one shown.
    const buttons = page.querySelectorAll(`button[aria-keyshortcuts="${event.key.toUpperCase()}"]`);
    const button = [...buttons].find((candidate) => !candidate.disabled && candidate.offsetParent);
    if (!button) return;
    event.preventDefault();
    button.click();
  });
}
