// Live bracket: the server says "changed" over /ws/tournaments/<id>/ and the bracket
// fragment is fetched again.
import { followLive } from "./live-fragment.js";

const root = document.querySelector("[data-bracket-live]");
if (root) followLive(root, "changed");
