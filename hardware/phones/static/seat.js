// One seat's page: draws whatever page structure the table sends, sends back the choice tapped.
// It knows no game. It reads its seat's token from its own URL and never stores it.
"use strict";

(function () {
  const TONES = ["normal", "muted", "accent", "warn"];
  const $ = (id) => document.getElementById(id);
  let socket = null;
  let retryDelay = 500; // ms, doubled after each failed try, at most 8 s
  let stopped = false;
  let timer = null;
  // A pulled plug sends no goodbye, and the connection can look open for minutes: the table says "alive"
  // every few seconds, and a page that hears nothing for 2.5 of those calls the connection lost itself.
  let silence = 25000; // ms, until the table says how often it speaks
  let heard = 0;

  // A random id this tab keeps for itself: coming back after a lost connection, it takes its own seat
  // back instead of being taken for a second phone. It is not the token and opens nothing by itself.
  function browserId() {
    let id = sessionStorage.getItem("seat-browser");
    if (!id) {
      const bytes = new Uint8Array(16);
      crypto.getRandomValues(bytes);
      id = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
      sessionStorage.setItem("seat-browser", id);
    }
    return id;
  }

  function tone(name) {
    return "tone-" + (TONES.includes(name) ? name : "normal");
  }

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text); // never HTML: names are text
    return node;
  }

  function connection(text, state) {
    const line = $("connection");
    line.textContent = text;
    line.className = "connection " + state;
  }

  function draw(page) {
    $("refused").hidden = true;
    const sections = $("sections");
    const choices = $("choices");
    sections.replaceChildren();
    choices.replaceChildren();
    if (!page) {
      $("title").textContent = "Your seat";
      $("status").textContent = "Waiting for the game…";
      $("notice").hidden = true;
      return;
    }
    $("title").textContent = page.title || "Your seat";
    document.title = page.title || "Your seat";
    $("status").textContent = page.status || "";
    $("notice").textContent = page.notice || "";
    $("notice").hidden = !page.notice;
    for (const section of page.sections || []) {
      const box = element("section");
      if (section.heading) box.appendChild(element("h2", "", section.heading));
      for (const row of section.rows || []) {
        const line = element("div", "row " + tone(row.tone));
        line.appendChild(element("span", "text", row.text));
        if (row.note) line.appendChild(element("span", "note", row.note));
        box.appendChild(line);
      }
      sections.appendChild(box);
    }
    for (const choice of page.choices || []) {
      const button = element("button", tone(choice.tone), choice.label);
      button.type = "button";
      button.addEventListener("click", () => send(choice.action));
      choices.appendChild(button);
    }
  }

  function send(action) {
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      refused("Not connected: your choice was not sent.");
      return;
    }
    socket.send(JSON.stringify({ type: "act", action: action }));
  }

  function refused(sentence) {
    const line = $("refused");
    line.textContent = sentence;
    line.hidden = false;
  }

  function stop(sentence) {
    stopped = true;
    connection(sentence, "lost");
    $("sections").replaceChildren();
    $("choices").replaceChildren();
    $("again").hidden = false;
  }

  function connect() {
    timer = null;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const url = scheme + "//" + location.host + location.pathname.replace(/\/$/, "") + "/live?browser=" + browserId();
    const ws = new WebSocket(url);
    socket = ws;
    ws.onopen = () => {
      heard = Date.now();
      retryDelay = 500;
      $("refused").hidden = true; // an old refusal is about a page that is gone
      connection("Connected", "ok");
    };
    ws.onmessage = (event) => {
      heard = Date.now();
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (error) {
        return;
      }
      if (message.type === "alive") silence = Math.max(2000, Number(message.every) * 2500 || silence);
      else if (message.type === "page") draw(message.page);
      else if (message.type === "refused") refused(message.sentence);
      else if (message.type === "bye") {
        if (message.retry) connection(message.sentence + " Trying again…", "lost");
        else stop(message.sentence);
      }
    };
    ws.onclose = () => lost(ws);
  }

  function lost(ws) {
    if (socket !== ws) return;
    socket = null;
    if (stopped) return;
    if (!$("connection").classList.contains("lost") || $("connection").textContent.indexOf("Trying") < 0) {
      connection("Connection lost: trying again…", "lost");
    }
    timer = setTimeout(connect, retryDelay);
    retryDelay = Math.min(retryDelay * 2, 8000);
  }

  function listen() {
    const ws = socket;
    if (ws && ws.readyState === WebSocket.OPEN && Date.now() - heard > silence) {
      lost(ws); // at once: closing a connection nobody answers can itself take minutes
      ws.close();
    }
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("again").addEventListener("click", () => location.reload());
    connect();
    setInterval(listen, 1000);
  });
  // A phone waking up reconnects at once rather than after its back-off.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && timer !== null && !stopped) {
      clearTimeout(timer);
      connect();
    }
  });
})();
