// The chat beside the board. Players talk with each other and spectators among
// themselves: the server keeps the two rooms apart, so this shows whatever it sends.

import { errorToast } from "./notices.js";

export const withChatHistory = (messages) => ({ chat: messages || [] });

export const withChatMessage = (state, message) => ({ chat: state.chat.concat([message]) });

export function startChat(store, page, send) {
  const log = page.querySelector('[data-testid="chat-log"]');
  store.subscribe((state, previous) => {
    if (previous && state.chat === previous.chat) return;
    render(log, state.chat, previous ? previous.chat : []);
  });
  page.querySelector("#chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = page.querySelector('[data-testid="chat-input"]');
    const text = input.value.trim();
    if (!text) return;
    if (send({ type: "chat", text })) input.value = "";
    else store.update(errorToast("Not connected: reconnecting…"));
  });
}

function render(log, chat, before) {
  // A new message only adds a line: the rest of the log stays as the reader left it.
  const added = chat.length === before.length + 1 && before.every((message, index) => chat[index] === message);
  if (added && log.children.length === before.length) log.appendChild(chatItem(chat[chat.length - 1]));
  else log.replaceChildren(...chat.map(chatItem));
  log.scrollTop = log.scrollHeight;
}

function chatItem(message) {
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
  return li;
}
