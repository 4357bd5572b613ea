// The menu button of narrow screens: the site's links fold behind it so the bar keeps to
// one row. The class on <html> says the button works; without this script (or before it
// runs) the links stay in sight and wrap, so the navigation is never out of reach.
const nav = document.querySelector("[data-nav]");
const button = nav && nav.querySelector(".nav-menu");

if (button) {
  document.documentElement.classList.add("has-nav-menu");
  const setOpen = (open) => {
    nav.classList.toggle("is-open", open);
    button.setAttribute("aria-expanded", String(open));
  };
  button.addEventListener("click", () => setOpen(!nav.classList.contains("is-open")));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && nav.classList.contains("is-open")) {
      setOpen(false);
      button.focus();
    }
  });
  document.addEventListener("click", (event) => {
    if (!nav.contains(event.target)) setOpen(false);
  });
}
