/* global document, location */
// Reloads the merge box while its `data-pull-merge-box-reloading-interval` is set (a check or an update is pending).
(function () {
  function schedule() {
    var box = document.getElementById('merge-box');
    var ms = box && Number(box.getAttribute('data-pull-merge-box-reloading-interval'));
    if (!ms) return;
    setTimeout(function () {
      fetch(location.pathname.replace(/\/$/, '') + '/merge_box', { credentials: 'same-origin' })
        .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
        .then(function (html) {
          var tmp = document.createElement('div');
          tmp.innerHTML = html;
          var next = tmp.firstElementChild;
          if (next) {
            box.replaceWith(next);
            var s = document.getElementById('mergeable-state');
            if (s) s.textContent = next.getAttribute('data-mergeable-state') || '';
          }
          schedule();
        })
        .catch(function () { schedule(); });
    }, ms);
  }
  schedule();
})();
