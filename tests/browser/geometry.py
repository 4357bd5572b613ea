"""What is wrong with a page's layout, measured in the browser: the geometry checker.

``misfits(page)`` evaluates one function in the page and returns, in words that name the
element, everything a reader would see broken:

- the page scrolls sideways (``scrollWidth`` past the window), with the elements that
  stick out past the right edge (those inside a sideways scroller of their own are fine);
- two visible cards or controls overlap (buttons, fields, cards, bracket match cards, the
  toast, a match's names and clocks), measured on what their scrollers let show; notice
  cards and open menus float over the page by design, but never over a match's scoreboard
  (its names, clocks and score);
- an open menu or dialog reaches past the window's left or right edge, or above its top;
- text cut by its box: an element whose content is wider than it with overflow hidden or
  clipped or an ellipsis, or a block whose own text runs out past its right edge;
- a radio button or check box above or below the words of its label, not beside them.
"""

from __future__ import annotations

from playwright.sync_api import Page

# Things a reader looks at or presses; two of them overlapping is a defect.
BOXES = ", ".join(
    (
        "button",
        "input:not([type=hidden])",
        "select",
        "textarea",
        ".btn",
        ".card",
        ".bracket-card",
        ".slot",
        ".notice-card",
        ".toast",
        ".seek-row",
        ".clock",
        ".side-name",
        ".match-side",
        ".scoreboard",
        ".swing-chart .key",
        "label",
    )
)
# Open menus and dialogs: they must be wholly inside the window.
MENUS = ", ".join(
    (
        "dialog[open]",
        "[role=menu]",
        "[role=dialog]",
        "[role=listbox]",
        "[aria-modal=true]",
        ".resign-menu-list",
        ".toast",
    )
)

CHECK = """({boxSelector, menuSelector}) => {
    const width = window.innerWidth, height = window.innerHeight;
    const found = [];
    const name = (el) => {
        let text = el.tagName.toLowerCase();
        if (el.id) text += `#${el.id}`;
        const classes = (el.className.baseVal ?? el.className ?? '').toString().trim();
        if (classes) text += '.' + classes.split(/\\s+/).join('.');
        if (el.dataset && el.dataset.testid) text += `[data-testid=${el.dataset.testid}]`;
        const words = (el.innerText || el.value || el.getAttribute('aria-label') || '')
            .trim().replace(/\\s+/g, ' ');
        if (words) text += ` "${words.slice(0, 40)}${words.length > 40 ? '…' : ''}"`;
        return text;
    };
    const shown = (el) => {
        if (!el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true})) return false;
        const r = el.getBoundingClientRect();
        // Text kept for screen readers only is drawn in a 1-px box on purpose.
        return r.width > 1.5 && r.height > 1.5;
    };
    // A floating layer: notice cards and open menus float over the page by design, but never
    // over the match's names, clocks and score.
    const KEPT_CLEAR = '.scoreboard, .scoreboard *';
    const floating = (el) => el.closest('.notice-stack, [role=menu], dialog[open]') !== null;
    const clips = (style) => ['hidden', 'clip', 'auto', 'scroll'].includes(style.overflowX)
        || ['hidden', 'clip', 'auto', 'scroll'].includes(style.overflowY);
    // The part of an element its scrolling or clipping ancestors let show, in the window.
    const seen = (el) => {
        const r = el.getBoundingClientRect();
        let box = {left: r.left, top: r.top, right: r.right, bottom: r.bottom};
        for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
            const style = getComputedStyle(up);
            if (style.position === 'fixed') break;
            if (!clips(style)) continue;
            const c = up.getBoundingClientRect();
            box = {
                left: Math.max(box.left, c.left), top: Math.max(box.top, c.top),
                right: Math.min(box.right, c.right), bottom: Math.min(box.bottom, c.bottom),
            };
        }
        return box;
    };
    const fixed = (el) => {
        for (let up = el; up; up = up.parentElement) {
            if (getComputedStyle(up).position === 'fixed') return true;
        }
        return false;
    };
    const scrollsSideways = (el) => {
        for (let up = el.parentElement; up; up = up.parentElement) {
            if (up === document.body || up === document.documentElement) return false;
            const x = getComputedStyle(up).overflowX;
            if (x === 'auto' || x === 'scroll' || x === 'hidden' || x === 'clip') return true;
        }
        return false;
    };

    // 1. The page scrolls sideways.
    const pageWidth = document.documentElement.scrollWidth;
    if (pageWidth > width) {
        const wide = [...document.querySelectorAll('body *')]
            .filter((el) => shown(el) && !scrollsSideways(el))
            .filter((el) => el.getBoundingClientRect().right > width + 0.5)
            .filter((el) => !el.parentElement
                || el.parentElement.getBoundingClientRect().right <= width + 0.5
                || el.parentElement === document.body);
        const names = wide.slice(0, 4).map((el) =>
            `${name(el)} (right edge at ${Math.round(el.getBoundingClientRect().right)} px)`);
        found.push(`the page is ${pageWidth} px wide in a ${width} px window: `
            + (names.join('; ') || 'no single element found'));
    }

    // 2. Cards or controls overlapping.
    const boxes = [...document.querySelectorAll(boxSelector)].filter(shown).map((el) => {
        const b = seen(el);
        return {el, b, fixed: fixed(el)};
    }).filter(({b}) => b.right - b.left > 0.5 && b.bottom - b.top > 0.5);
    const reported = new Set();
    for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
            const one = boxes[i], two = boxes[j];
            if (one.el.contains(two.el) || two.el.contains(one.el)) continue;
            if (floating(one.el) !== floating(two.el)) {
                const under = floating(one.el) ? two.el : one.el;
                if (!under.matches(KEPT_CLEAR)) continue;
            }
            // A label and the field it names may touch; a label holding its field is nested.
            if (one.el.tagName === 'LABEL' && one.el.control === two.el) continue;
            if (two.el.tagName === 'LABEL' && two.el.control === one.el) continue;
            const across = Math.min(one.b.right, two.b.right) - Math.max(one.b.left, two.b.left);
            const down = Math.min(one.b.bottom, two.b.bottom) - Math.max(one.b.top, two.b.top);
            if (across > 1.5 && down > 1.5) {
                const key = `${name(one.el)}|${name(two.el)}`;
                if (reported.has(key)) continue;
                reported.add(key);
                found.push(`${name(one.el)} and ${name(two.el)} overlap by `
                    + `${Math.round(across)}×${Math.round(down)} px`);
            }
        }
    }

    // 3. Open menus and dialogs outside the window.
    for (const el of document.querySelectorAll(menuSelector)) {
        if (!shown(el)) continue;
        const r = el.getBoundingClientRect();
        if (r.left < -0.5 || r.right > width + 0.5 || (fixed(el) && (r.top < -0.5
                || r.bottom > height + 0.5))) {
            found.push(`${name(el)} is outside the ${width}×${height} window: `
                + `left ${Math.round(r.left)}, right ${Math.round(r.right)}, `
                + `top ${Math.round(r.top)}, bottom ${Math.round(r.bottom)} px`);
        }
    }

    // 4. Text cut by its box, or running out of it.
    for (const el of document.querySelectorAll('body *')) {
        if (el.closest('svg, canvas, script, style, template') || !shown(el)) continue;
        const style = getComputedStyle(el);
        if (style.display === 'inline' || style.display === 'contents') continue;
        const ownText = [...el.childNodes].some((node) =>
            node.nodeType === Node.TEXT_NODE && node.textContent.trim());
        const overflow = el.scrollWidth - el.clientWidth;
        if (overflow <= 1) continue;
        const cut = ['hidden', 'clip'].includes(style.overflowX)
            || style.textOverflow === 'ellipsis';
        const scrolls = ['auto', 'scroll'].includes(style.overflowX);
        if (cut && !scrolls && (ownText || el.innerText.trim())) {
            found.push(`${name(el)} cuts its text: ${el.scrollWidth} px of content in `
                + `${el.clientWidth} px`);
        } else if (!cut && ownText && style.overflowX === 'visible') {
            found.push(`${name(el)} lets its text run out: ${el.scrollWidth} px of content in `
                + `${el.clientWidth} px`);
        }
    }

    // 5. A radio button or check box not on the line of the words that name it.
    for (const input of document.querySelectorAll(
            'label > input[type=radio], label > input[type=checkbox]')) {
        if (!shown(input)) continue;
        const label = input.parentElement;
        const words = [...label.childNodes].find((node) =>
            node.nodeType === Node.TEXT_NODE && node.textContent.trim());
        if (!words) continue;
        const range = document.createRange();
        range.selectNodeContents(words);
        const line = range.getClientRects()[0];
        const box = input.getBoundingClientRect();
        const middle = box.top + box.height / 2;
        if (line && (middle < line.top - 2 || middle > line.bottom + 2)) {
            found.push(`${name(input)} is not on the line of its words in ${name(label)}`);
        }
    }
    return found;
}"""


def misfits(page: Page) -> list[str]:
    """Everything wrong with the page's layout as it is drawn now; empty when it fits."""
    found: list[str] = page.evaluate(CHECK, {"boxSelector": BOXES, "menuSelector": MENUS})
    return found
