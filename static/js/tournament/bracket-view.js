// How a bracket of several flights is looked at: a tab per flight (or all of them side by
// side) and, on a wide screen, the whole of what is shown fitted to the width, so a double
// elimination's finals are in view without scrolling; "Actual size" draws it full size
// again. The bar sits before the live part, so it outlives every fetched fragment;
// arrange() is called again after each one.

import { _ } from "../lib/i18n.js";

const FIT_FROM_PX = 900; // narrower screens stack the flights one above the other

export function startBracketView(root) {
  const state = { flight: "all", fit: window.innerWidth >= FIT_FROM_PX };
  let bar = null;

  function build() {
    const flights = [...root.querySelectorAll(".flights-many > .flight")];
    if (!flights.length) {
      bar?.remove();
      bar = null;
      return;
    }
    if (!bar) {
      bar = document.createElement("div");
      bar.className = "bracket-view";
      bar.dataset.testid = "bracket-view";
      root.before(bar);
    }
    const tabs = [["all", _("All flights")], ...flights.map((flight) => [flight.dataset.flight, flight.getAttribute("aria-label")])];
    if (!tabs.some(([name]) => name === state.flight)) state.flight = "all";
    bar.replaceChildren(
      tabList(tabs),
      button(state.fit ? _("Actual size") : _("Fit to width"), "bracket-fit", () => {
        state.fit = !state.fit;
        arrange();
      }),
    );
  }

  function tabList(tabs) {
    const list = document.createElement("div");
    list.className = "bracket-tabs";
    list.setAttribute("role", "tablist");
    list.setAttribute("aria-label", _("Flights"));
    for (const [name, title] of tabs) {
      const tab = button(title, `flight-tab-${name}`, () => {
        state.flight = name;
        arrange();
      });
      tab.setAttribute("role", "tab");
      tab.setAttribute("aria-selected", String(name === state.flight));
      list.append(tab);
    }
    return list;
  }

  function button(text, testid, onClick) {
    const element = document.createElement("button");
    element.type = "button";
    element.className = "btn btn-ghost btn-small";
    element.dataset.testid = testid;
    element.textContent = text;
    element.addEventListener("click", onClick);
    return element;
  }

  function arrange() {
    build();
    if (!bar) return;
    for (const flight of root.querySelectorAll(".flights-many > .flight")) {
      flight.hidden = state.flight !== "all" && flight.dataset.flight !== state.flight;
    }
    const flights = root.querySelector(".flights-many");
    const scroller = flights.closest(".bracket-scroll");
    flights.style.zoom = "";
    if (state.fit && scroller) {
      const room = scroller.clientWidth - 2 * parseFloat(getComputedStyle(scroller).paddingLeft);
      const ratio = room / flights.scrollWidth;
      if (ratio < 1) flights.style.zoom = String(Math.max(ratio, 0.35));
    }
    root.dataset.fitted = flights.style.zoom ? "yes" : "no";
  }

  window.addEventListener("resize", arrange);
  arrange();
  return arrange;
}
