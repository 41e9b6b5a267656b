// Beside the seats' QR codes: whether a phone can open them (GET /api/join-address, web/pages.py). A service that
// listens on this machine only says so and how to open it to the table; one on the LAN names the address the
// codes carry. Any page with the codes (#seats) can call it.

import { t } from "./i18n.js";
import { api, h } from "./ui.js";

/** Put the note after the list of seats `seats` (again: replaced); the answer, or null if it could not be asked. */
export async function showJoinAddress(seats) {
  if (!seats) return null;
  const answer = await api("GET", "/api/join-address");
  if (!answer.ok) return null;
  const { url, reachable } = answer.data;
  const note = reachable
    ? h("p", { id: "join-address", class: "note join-address", "data-reachable": "true" }, t("join_reachable", { url }))
    : h("div", { id: "join-address", class: "note join-address local-only", "data-reachable": "false", role: "note" },
      h("p", {}, h("strong", {}, t("join_local_only"))),
      h("p", {}, t("join_how")), h("pre", {}, h("code", {}, "./run serve --host 0.0.0.0")),
      h("p", { class: "muted" }, t("join_how_more")));
  document.getElementById("join-address")?.remove();
  seats.after(note);
  return answer.data;
}
