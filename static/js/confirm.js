/* Sumito: a form with data-confirm="question" asks before it is sent (no inline handlers: the
 * site's Content-Security-Policy allows no inline script). */
document.addEventListener("submit", (event) => {
  const question = event.target.dataset ? event.target.dataset.confirm : null;
  if (question && !window.confirm(question)) event.preventDefault();
});
