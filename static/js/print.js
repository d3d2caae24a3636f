/* Sumito: a "Print" button on the pages that print well (pairings, standings, crosstable).
 * Delegated: live-refresh.js swaps the part of the page the button is in. */
document.documentElement.classList.add("can-print");
document.addEventListener("click", (event) => {
  if (event.target.closest("[data-print]")) window.print();
});
