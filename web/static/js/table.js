// The shared table page's own script, beside its game's: whether a phone can open the seats' QR codes, said
// beside them (a file, not an inline script: the pages' Content-Security-Policy runs no inline script).

import { showJoinAddress } from "./reach.js";

showJoinAddress(document.getElementById("seats"));
