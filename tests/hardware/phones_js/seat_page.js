// Runs hardware/phones/static/seat.js under node with a small stand-in DOM and WebSocket, plays a script of
// server messages and taps, and prints what the page showed after each step as JSON lines.
"use strict";
const fs = require("fs");
const vm = require("vm");

class Node {
  constructor(tag, id) {
    this.tag = tag; this.id = id || ""; this.children = []; this.className = ""; this.hidden = false;
    this._text = ""; this.listeners = {}; this.type = "";
  }
  set textContent(value) { this._text = String(value); this.children = []; }
  get textContent() { return this._text + this.children.map((c) => c.textContent).join(" "); }
  get classList() { return { contains: (name) => this.className.split(/\s+/).includes(name) }; }
  appendChild(child) { this.children.push(child); return child; }
  replaceChildren() { this.children = []; }
  addEventListener(kind, fn) { (this.listeners[kind] = this.listeners[kind] || []).push(fn); }
  click() { (this.listeners.click || []).forEach((fn) => fn()); }
  all(tag) { return this.children.flatMap((c) => (c.tag === tag ? [c] : []).concat(c.all(tag))); }
}

const ids = ["title", "status", "connection", "refused", "notice", "sections", "choices", "again"];
const nodes = Object.fromEntries(ids.map((id) => [id, new Node("p", id)]));
const documentListeners = {};
const sockets = [];
const timers = [];
class FakeSocket {
  constructor(url) { this.url = url; this.sent = []; this.readyState = 0; sockets.push(this); }
  send(text) { this.sent.push(JSON.parse(text)); }
}
FakeSocket.OPEN = 1;
const storage = {};
const context = {
  document: {
    getElementById: (id) => nodes[id],
    createElement: (tag) => new Node(tag),
    addEventListener: (kind, fn) => { documentListeners[kind] = fn; },
    title: "", visibilityState: "visible",
  },
  location: { protocol: "http:", host: "127.0.0.1:8080", pathname: "/seat/TOKEN", reload: () => {} },
  sessionStorage: { getItem: (k) => storage[k] || null, setItem: (k, v) => { storage[k] = v; } },
  crypto: globalThis.crypto,
  WebSocket: FakeSocket,
  setTimeout: (fn, ms) => { timers.push({ fn, ms }); return timers.length; },
  clearTimeout: () => {},
  setInterval: () => 0,
  Date, Number,
  JSON, Array, Uint8Array, String, Math, Object,
};
vm.createContext(context);
vm.runInContext(fs.readFileSync(process.argv[2], "utf8"), context);

function shown() {
  return {
    title: nodes.title.textContent, status: nodes.status.textContent,
    connection: nodes.connection.textContent, connectionClass: nodes.connection.className,
    refused: nodes.refused.hidden ? null : nodes.refused.textContent,
    notice: nodes.notice.hidden ? null : nodes.notice.textContent,
    headings: nodes.sections.all("h2").map((n) => n.textContent),
    rows: nodes.sections.all("div").map((n) => [n.className, n.textContent]),
    buttons: nodes.choices.all("button").map((n) => [n.className, n.textContent]),
    again: !nodes.again.hidden, sockets: sockets.map((s) => s.url), timers: timers.map((t) => t.ms),
    sent: sockets.flatMap((s) => s.sent),
  };
}

const last = () => sockets[sockets.length - 1];
for (const step of JSON.parse(fs.readFileSync(0, "utf8"))) {
  if (step.do === "load") documentListeners.DOMContentLoaded();
  else if (step.do === "open") { last().readyState = 1; last().onopen(); }
  else if (step.do === "message") last().onmessage({ data: JSON.stringify(step.message) });
  else if (step.do === "raw") last().onmessage({ data: step.data });
  else if (step.do === "tap") nodes.choices.all("button")[step.index].click();
  else if (step.do === "close") { last().readyState = 3; last().onclose(); }
  else if (step.do === "timer") timers.shift().fn();
  console.log(JSON.stringify(shown()));
}
