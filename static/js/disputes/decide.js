// The decision form: show the extra fields of the chosen decision only.

const form = document.querySelector("[data-testid=decide-form]");

function update() {
  const chosen = form.querySelector("input[name=decision]:checked")?.value;
  form.querySelectorAll(".decide-extra").forEach((extra) => {
    extra.hidden = extra.dataset.for !== chosen;
  });
}

if (form) {
  form.addEventListener("change", update);
  update();
}
