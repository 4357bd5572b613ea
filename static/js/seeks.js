// The play lobby's open seeks, live: /ws/lobby/ says a seek was posted, taken or cancelled,
// and the list is fetched again (each viewer may take different seeks, so the server draws
// it).
import { followLive } from "./live-fragment.js";

const root = document.querySelector("[data-seeks-live]");
if (root) followLive(root, "seek");
