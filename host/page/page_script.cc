// page_script.cc — the page's inline script. Plain ES5-level JavaScript written here,
// no library: the page must work offline. Text from the data block is only ever set
// with textContent, never parsed as HTML (it comes from target memory).
#include "page/page_frame.h"

namespace mpidbg::page {

const char* PageErrorHook() {
  return R"JS(window.pageErrors = [];
window.onerror = function (message, source, line) {
  var text = String(message) + (line ? ' (line ' + line + ')' : '');
  window.pageErrors.push(text);
  var root = document.documentElement;
  root.setAttribute('data-script-errors', window.pageErrors.join(' | '));
  root.removeAttribute('data-page-ready');
  var box = document.getElementById('script-errors');
  if (box) { box.hidden = false; box.textContent = 'script error: ' + window.pageErrors.join('\n'); }
  return false;
};
)JS";
}

const char* PageScript() {
  return R"JS((function () {
  'use strict';
  var data = null;
  var block = document.getElementById('page-data');
  if (block) data = JSON.parse(block.textContent);
  var byRank = {};
  if (data && data.ranks) {
    for (var i = 0; i < data.ranks.length; i++) byRank[data.ranks[i].rank] = data.ranks[i];
  }

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }
  function plain(value) {
    if (value === null || value === undefined) return '-';
    if (typeof value !== 'object') return String(value);
    if (Array.isArray(value)) {
      var parts = [];
      for (var i = 0; i < value.length; i++) parts.push(plain(value[i]));
      return parts.join(', ');
    }
    var fields = [];
    for (var k in value) {
      if (Object.prototype.hasOwnProperty.call(value, k) && value[k] !== null) {
        fields.push(k + '=' + plain(value[k]));
      }
    }
    return fields.join(' ');
  }
  function frameText(f) {
    var where = f.file ? ' at ' + f.file + (f.line ? ':' + f.line : '') : '';
    return (f.function || f.pc || '?') + where + (f.module ? ' [' + f.module + ']' : '');
  }

  // Per-rank detail, built on demand from the data block.
  function showRank(rank) {
    var box = document.getElementById('rank-detail');
    if (!box) return;
    box.hidden = false;
    box.textContent = '';
    var entry = byRank[rank];
    var head = el('h3', 'rank ' + rank);
    var close = el('button', 'close');
    close.type = 'button';
    close.onclick = function () { box.hidden = true; };
    head.appendChild(close);
    box.appendChild(head);
    if (!entry) { box.appendChild(el('p', 'no rank ' + rank + ' in this page')); return; }
    var table = el('table', null, 'detail');
    for (var k in entry) {
      if (!Object.prototype.hasOwnProperty.call(entry, k) || k === 'frames') continue;
      var row = el('tr');
      row.appendChild(el('th', k));
      row.appendChild(el('td', plain(entry[k])));
      table.appendChild(row);
    }
    box.appendChild(table);
    if (entry.frames && entry.frames.length) {
      box.appendChild(el('h4', 'stack, innermost first'));
      var list = el('ol', null, 'frames');
      for (var j = 0; j < entry.frames.length; j++) list.appendChild(el('li', frameText(entry.frames[j])));
      box.appendChild(list);
    }
    box.scrollIntoView({block: 'nearest'});
  }

  var form = document.getElementById('rank-lookup');
  if (form) {
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var value = document.getElementById('rank-query').value;
      if (value !== '') showRank(parseInt(value, 10));
    });
  }
  document.addEventListener('click', function (event) {
    var target = event.target;
    while (target && target !== document && !(target.getAttribute && target.getAttribute('data-rank'))) {
      target = target.parentNode;
    }
    if (target && target !== document) showRank(parseInt(target.getAttribute('data-rank'), 10));
  });

  // A link to one rank's detail: page.html#rank-3.
  var wanted = /^#rank-(\d+)$/.exec(window.location.hash);
  if (wanted) showRank(parseInt(wanted[1], 10));

  // Heat-map cells and bars: their <title> shown as the pointer moves over them.
  var info = document.getElementById('hover-info');
  document.addEventListener('mouseover', function (event) {
    var t = event.target;
    if (!info || !t || !t.querySelector) return;
    var title = t.querySelector('title');
    var hover = t.getAttribute && t.getAttribute('data-hover');
    var text = hover || (title && (t.classList.contains('cell') || t.classList.contains('bar')) ? title.textContent : '');
    if (text) { info.hidden = false; info.textContent = text; }
  });

  function setAll(open) {
    var all = document.querySelectorAll('details');
    for (var i = 0; i < all.length; i++) all[i].open = open;
  }
  var expand = document.getElementById('expand-all');
  var collapse = document.getElementById('collapse-all');
  if (expand) expand.onclick = function () { setAll(true); };
  if (collapse) collapse.onclick = function () { setAll(false); };

  if (!window.pageErrors || window.pageErrors.length === 0) {
    document.documentElement.setAttribute('data-page-ready', 'yes');
  }
})();
)JS";
}

}  // namespace mpidbg::page
