// The chat beside the board. Players talk with each other and spectators among
// themselves: the server keeps the two rooms apart (and leaves out the lines of people
// the reader muted or blocked), so this shows whatever it sends. Each line of someone
// else has a "Report" button that sends it to staff (POST /api/chat/<id>/report/).

import { _, format } from "../lib/i18n.js";
import { errorToast } from "./notices.js";

export const withChatHistory = (messages) => ({ chat: messages || [] });

export const withChatMessage = (state, message) => ({ chat: state.chat.concat([message]) });

export function startChat(store, page, send) {
  const log = page.querySelector('[data-testid="chat-log"]');
  const item = (message) => chatItem(message, store.get().config.username);
  store.subscribe((state, previous) => {
    if (previous && state.chat === previous.chat) return;
    render(log, state.chat, previous ? previous.chat : [], item);
  });
  log.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-report]");
    if (button) report(store, page, button);
  });
  page.querySelector("#chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = page.querySelector('[data-testid="chat-input"]');
    const text = input.value.trim();
    if (!text) return;
    if (send({ type: "chat", text })) input.value = "";
    else store.update(errorToast(_("Not connected: reconnecting…")));
  });
}

function render(log, chat, before, item) {
  // A new message only adds a line: the rest of the log stays as the reader left it.
  const added = chat.length === before.length + 1 && before.every((message, index) => chat[index] === message);
  if (added && log.children.length === before.length) log.appendChild(item(chat[chat.length - 1]));
  else log.replaceChildren(...chat.map(item));
  log.scrollTop = log.scrollHeight;
}

/** Send the line to staff; the button then says it was, or the toast says why not. */
async function report(store, page, button) {
  if (!window.confirm(_("Report this message to staff? They will read it with the conversation around it."))) return;
  const token = page.querySelector("#chat-form [name=csrfmiddlewaretoken]");
  button.disabled = true;
  try {
    const response = await fetch(`/api/chat/${button.dataset.report}/report/`, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": token ? token.value : "" },
      body: JSON.stringify({}),
    });
    const answer = await response.json().catch(() => ({}));
    if (response.ok || response.status === 409) {
      button.textContent = _("Reported");
      button.title = answer.detail || "";
    } else {
      button.disabled = false;
    }
    if (!response.ok) store.update(errorToast(answer.detail || _("The report could not be sent; try again.")));
  } catch {
    button.disabled = false;
    store.update(errorToast(_("The report could not be sent; try again.")));
  }
}

function chatItem(message, username) {
  const li = document.createElement("li");
  const time = document.createElement("time");
  const at = new Date(message.at);
  if (!Number.isNaN(at.getTime())) {
    time.dateTime = message.at;
    time.textContent = at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  }
  const author = document.createElement("span");
  author.className = "author";
  author.textContent = message.name || message.author;
  const text = document.createElement("span");
  text.textContent = message.text;
  li.append(time, author, text);
  if (username && message.id && message.author !== username) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "btn btn-ghost btn-small chat-report";
    button.dataset.report = String(message.id);
    button.dataset.testid = "chat-report";
    button.textContent = _("Report");
    button.setAttribute("aria-label", format(_("Report %(name)s's message to staff"), { name: message.name || message.author }));
    li.append(" ", button);
  }
  return li;
}
