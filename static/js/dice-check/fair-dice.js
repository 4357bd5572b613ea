// Fair dice, drawn as the server draws them (matches/dice.py), with the browser's own
// Web Crypto, so a player can check every roll without trusting the server's check.
//
// Every die of roll `roll` of game `game` comes from HMAC-SHA256 with the match's seed as
// key and the message "game:roll:block": the bytes of block 0, then block 1, ... are read
// in turn, bytes of 252 and above are thrown away (so each face has 42 of the 252 kept
// values) and the rest give byte % 6 + 1. Roll 0 is the opening roll: one die per player,
// thrown again while they are equal. The *commitment* is the SHA-256 of the seed, shown
// to both players before the first roll.

const ACCEPTED_BELOW = 252;

function bytesOf(hex) {
  return new Uint8Array(hex.match(/../g).map((pair) => parseInt(pair, 16)));
}

function hexOf(buffer) {
  return [...new Uint8Array(buffer)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Whether this browser can check here: Web Crypto exists on secure (HTTPS or local) pages only. */
export const canCheck = () => Boolean(globalThis.crypto && crypto.subtle);

/** The SHA-256 of the seed (64 hexadecimal digits), as hexadecimal. */
export async function commitmentOf(seed) {
  return hexOf(await crypto.subtle.digest("SHA-256", bytesOf(seed)));
}

/** The seed as an HMAC key, to draw dice with. */
export function seedKey(seed) {
  return crypto.subtle.importKey("raw", bytesOf(seed), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

async function* diceStream(key, game, roll) {
  const encoder = new TextEncoder();
  for (let block = 0; ; block += 1) {
    const digest = await crypto.subtle.sign("HMAC", key, encoder.encode(`${game}:${roll}:${block}`));
    for (const byte of new Uint8Array(digest)) {
      if (byte < ACCEPTED_BELOW) yield (byte % 6) + 1;
    }
  }
}

async function throwOf(stream) {
  const first = await stream.next();
  const second = await stream.next();
  return [first.value, second.value];
}

/** The opening throws of a game, [player 0's die, player 1's die] each, up to the first that differ. */
export async function openingThrows(key, game) {
  const stream = diceStream(key, game, 0);
  const throws = [];
  for (;;) {
    const thrown = await throwOf(stream);
    throws.push(thrown);
    if (thrown[0] !== thrown[1]) return throws;
  }
}

/** The dice of a later roll (`roll` from 1) of a game. */
export function turnDice(key, game, roll) {
  return throwOf(diceStream(key, game, roll));
}
