// Small behaviours of plain forms, written here rather than in onchange/onsubmit
// attributes, which the Content-Security-Policy does not run:
//   <select data-submit-on-change>  sends its form when another option is chosen;
//   <form data-confirm="Question?"> asks before it is sent.
document.addEventListener("change", (event) => {
  const field = event.target;
  if (field instanceof HTMLSelectElement && field.hasAttribute("data-submit-on-change")) {
    field.form?.submit();
  }
});

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (form instanceof HTMLFormElement && form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
    event.preventDefault();
  }
});

//   <input data-shown-for="swiss round_robin">  its field shows only while the form's
//   "format" select holds one of those values (the organizer's tournament form). Without
//   scripts every field shows, and the server ignores those the format does not take.
function showFieldsFor(form) {
  const format = form.querySelector("select[name=format]");
  if (!format) return;
  for (const input of form.querySelectorAll("[data-shown-for]")) {
    const shown = input.dataset.shownFor.split(" ").includes(format.value);
    const field = input.closest(".field") ?? input;
    field.hidden = !shown;
  }
}

for (const form of document.querySelectorAll("form")) {
  if (form.querySelector("[data-shown-for]")) showFieldsFor(form);
}
document.addEventListener("change", (event) => {
  const field = event.target;
  if (field instanceof HTMLSelectElement && field.name === "format" && field.form) {
    showFieldsFor(field.form);
  }
});
