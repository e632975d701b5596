#!/usr/bin/python3
"""The template workbench in a real browser (issue 31).

Serves the built page (`make web`: build/web/site) from a local static server on 127.0.0.1, drives
it in headless Chromium (Debian's chromium, chromium-driver and python3-selenium) and compares it
with the native `rmg` command:

- corpus .h3t files opened through the page's file input and generated with fixed seeds: the
  fingerprint the page shows equals `rmg generate`'s, and the .h3m the page's download link gives
  is byte-identical to `rmg generate -o map.h3m` (determinism across platforms);
- a broken template shows its diagnostics (the codes and places `rmg check` reports);
- an impossible setup shows the library's failure reason (the message `rmg generate` prints);
- a screenshot of the drawn map has pixels of several colours;
- the built-in template at M: the time of a generation in the page, printed (a benchmark, not an
  assertion), beside the native command's.

usage: test_web.py SITE_DIR RMG_BINARY [--screenshot docs/web.png]
The corpus is read from ../shared (or RMG_SHARED_DIR); without it those comparisons are skipped
with a SKIPPED: line.
"""
import argparse
import base64
import functools
import gzip
import http.server
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Five corpus packs (HotA .h3t) at their own size and levels, two seeds each.
CORPUS = ["Jebus_Cross", "2sm4d(3)", "Mini-Nostalgia", "Kerberos", "Diamond"]
CORPUS_PREFIX = "sokie__heroes3-template-util__templates__hota_complete__"
SEEDS = [1, 7]
BROKEN_YAML = """version: 1
name: broken pack
templates:
  - name: Broken
    min_size: 1
    max_size: 32
    zones:
      - {id: 1, kind: human_start, owner: 1, size: 20, player_towns: {castles: 1}}
      - {id: 2, kind: human_start, owner: 2, size: -5, player_towns: {castles: 1}}
    connections:
      - {a: 1, b: 2, value: 3000}
      - {a: 1, b: 9, value: 3000}
"""

passed = failed = skipped = 0


def check(ok, what, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok: {what}")
    else:
        failed += 1
        print(f"FAIL: {what}{': ' + detail if detail else ''}")


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map, **{".wasm": "application/wasm",
                                                                                   ".js": "text/javascript"})

    def log_message(self, *args):
        pass


def serve(site):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=site))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def browser(downloads):
    opts = webdriver.ChromeOptions()
    for a in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1500,1300"]:
        opts.add_argument(a)
    if os.path.exists("/usr/bin/chromium"):
        opts.binary_location = "/usr/bin/chromium"
    opts.add_experimental_option("prefs", {"download.default_directory": downloads,
                                           "download.prompt_for_download": False})
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=opts)
    driver.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})
    return driver


def native(rmg, args):
    return subprocess.run([rmg] + args, capture_output=True, text=True, timeout=300)


def wait_text(driver, element_id, pred, timeout=120):
    WebDriverWait(driver, timeout).until(lambda d: pred(d.find_element(By.ID, element_id).text))
    return driver.find_element(By.ID, element_id).text


def open_pack(driver, path):
    """Opens a file through the page's file input; waits for its check to finish."""
    driver.execute_script("document.getElementById('diag-count').textContent = ''")
    driver.find_element(By.ID, "pack-file").send_keys(path)
    wait_text(driver, "diag-count", lambda t: "error" in t)


def generate(driver, seed, **fields):
    """Sets the form's seed (and other fields), clicks Generate; returns (fingerprint, error text)."""
    driver.execute_script(
        "const [seed, fields] = arguments; document.getElementById('opt-seed').value = seed;"
        "for (const [k, v] of Object.entries(fields)) document.getElementById(k).value = v;"
        "document.getElementById('fingerprint').textContent = ''; document.getElementById('error').hidden = true;"
        "document.getElementById('progress-stage').textContent = '';", str(seed), fields)
    driver.find_element(By.ID, "generate").click()
    stage = wait_text(driver, "progress-stage", lambda t: t in ("done", "failed", "cancelled"), timeout=300)
    if stage != "done":
        return None, driver.find_element(By.ID, "error").text
    return driver.find_element(By.ID, "fingerprint").text, None


def take_download(downloads, link, driver, timeout=30):
    for f in os.listdir(downloads):
        os.remove(os.path.join(downloads, f))
    driver.find_element(By.ID, link).click()
    end = time.time() + timeout
    while time.time() < end:
        done = [f for f in os.listdir(downloads) if not f.endswith(".crdownload")]
        if done:
            time.sleep(0.2)
            with open(os.path.join(downloads, done[0]), "rb") as fh:
                return fh.read()
        time.sleep(0.1)
    return None


def png_colours(data):
    """Distinct colours of an 8-bit RGB/RGBA PNG (what Chromium's screenshots are)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), (depth, ctype)
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    colours = set()
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        for x in range(0, stride, bpp * 4):  # every fourth pixel is plenty
            colours.add(bytes(line[x:x + 3]))
        prev = line
    return colours


def main():
    global skipped
    ap = argparse.ArgumentParser()
    ap.add_argument("site")
    ap.add_argument("rmg")
    ap.add_argument("--screenshot", help="save a screenshot of the page here (docs/web.png)")
    args = ap.parse_args()
    site, rmg = os.path.abspath(args.site), os.path.abspath(args.rmg)
    shared = os.environ.get("RMG_SHARED_DIR", os.path.join(ROOT, "..", "shared"))
    corpus = os.path.realpath(os.path.join(shared, "corpus", "h3t"))
    work = tempfile.mkdtemp(prefix="rmg-web-")
    downloads = os.path.join(work, "downloads")
    os.makedirs(downloads)
    server = serve(site)
    driver = browser(downloads)
    try:
        # -- the page's size: the wasm and JS, gzipped, within 3 MB ------------------------------
        gz = sum(len(gzip.compress(open(os.path.join(site, f), "rb").read(), 9)) for f in sorted(os.listdir(site))
                 if f.endswith((".wasm", ".js")))
        check(gz <= 3 * 1024 * 1024, f"the wasm and JS take {gz} bytes gzipped (at most 3 MB)")

        driver.get(f"http://127.0.0.1:{server.server_address[1]}/index.html")
        version = wait_text(driver, "version", lambda t: t.startswith("librmg"), timeout=60)
        print(f"page loaded: {version}")
        wait_text(driver, "diag-count", lambda t: "error" in t)

        # -- corpus templates x seeds: fingerprints and .h3m bytes as native ----------------------
        compared = 0
        if not os.path.isdir(corpus):
            skipped += 1
            print(f"SKIPPED: {corpus} is absent: the corpus comparisons with the native command are not run")
        else:
            for name in CORPUS:
                path = os.path.join(corpus, CORPUS_PREFIX + name + ".h3t")
                open_pack(driver, path)
                for seed in SEEDS:
                    out = os.path.join(work, "native.h3m")
                    n = native(rmg, ["generate", path, "--seed", str(seed), "-o", out])
                    m = re.search(r"^fingerprint ([0-9a-f]{16})$", n.stdout, re.M)
                    fp, err = generate(driver, seed)
                    check(m and fp == m.group(1), f"{name} seed {seed}: fingerprint {fp} as native",
                          f"native {m and m.group(1)}, page error {err}")
                    page_h3m = take_download(downloads, "dl-h3m", driver) if fp else None
                    with open(out, "rb") as fh:
                        same = page_h3m == fh.read()
                    check(same, f"{name} seed {seed}: the downloaded .h3m is byte-identical to native "
                                f"({len(page_h3m or b'')} bytes)")
                    compared += bool(same and m and fp == m.group(1))
                    if name == CORPUS[0] and seed == SEEDS[0]:
                        # The library's PNG preview and the pack as YAML, as the command writes them.
                        png = os.path.join(work, "native.png")
                        native(rmg, ["generate", path, "--seed", str(seed), "-o", png])
                        with open(png, "rb") as fh:
                            check(take_download(downloads, "dl-png", driver) == fh.read(),
                                  "the PNG preview download is byte-identical to rmg generate -o map.png")
                        yml = os.path.join(work, "native.yaml")
                        native(rmg, ["convert", path, yml])
                        with open(yml, "rb") as fh:
                            check(take_download(downloads, "dl-yaml", driver) == fh.read(),
                                  "the pack .yaml download is byte-identical to rmg convert")
            print(f"compared with native: {compared} of {len(CORPUS) * len(SEEDS)} (templates x seeds)")

        # -- a screenshot of the drawn map: several colours ----------------------------------------
        if not driver.find_element(By.ID, "fingerprint").text:
            driver.find_element(By.ID, "builtin").click()
            wait_text(driver, "pack-name", lambda t: t == "built-in pack")
            generate(driver, 1)
        canvas = driver.find_element(By.ID, "map")
        colours = png_colours(canvas.screenshot_as_png)
        check(len(colours) >= 8, f"the drawn map has {len(colours)} colours (at least 8)")
        ActionChains(driver).move_to_element_with_offset(canvas, 40, 60).perform()
        hover = wait_text(driver, "hover", lambda t: "zone" in t, timeout=10)
        check(re.match(r"\(\d+, \d+, 0\) [a-z]+, zone \d+", hover), f"hovering a tile tells about it: {hover}")
        if args.screenshot:
            driver.save_screenshot(args.screenshot)
            print(f"screenshot: {args.screenshot}")

        # -- a broken template shows its diagnostics -------------------------------------------------
        broken = os.path.join(work, "broken.yaml")
        with open(broken, "w") as fh:
            fh.write(BROKEN_YAML)
        n = native(rmg, ["check", broken])
        want = sorted(re.findall(r":(\d+:\d+): error: .*\[([a-z-]+)\]$", n.stdout, re.M))
        open_pack(driver, broken)
        items = driver.find_elements(By.CSS_SELECTOR, "#diagnostics li.error")
        got = sorted((f"{li.get_attribute('data-line')}:{li.get_attribute('data-column')}",
                      re.search(r"\[([a-z-]+)\]$", li.text).group(1)) for li in items)
        check(want and got == want, f"a broken template shows its diagnostics as rmg check: {got}", f"native {want}")
        items[0].click()
        check(driver.find_element(By.ID, "source-view").is_displayed(), "clicking a diagnostic shows its line")
        fp, err = generate(driver, 1)
        check(fp is None and "zone size -5" in (err or ""), "generating it shows the errors", err or "")

        # -- a pack dropped on the page is opened like a picked one ----------------------------------
        driver.execute_script("document.getElementById('diag-count').textContent = '';"
                              "const dt = new DataTransfer();"
                              "dt.items.add(new File([arguments[0]], 'dropped.yaml'));"
                              "document.dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true}));",
                              BROKEN_YAML)
        count = wait_text(driver, "diag-count", lambda t: "error" in t)
        check(count.startswith("(2 error(s)") and driver.find_element(By.ID, "pack-name").text == "dropped.yaml",
              f"a dropped pack is opened and checked: {count}")

        # -- progress is shown while a map is made, and cancel stops it --------------------------------
        driver.find_element(By.ID, "builtin").click()
        wait_text(driver, "pack-name", lambda t: t == "built-in pack")
        driver.execute_script("document.getElementById('opt-best-of').value = 200;"
                              "document.getElementById('opt-size').value = 'L';"
                              "document.getElementById('progress-stage').textContent = '';")
        driver.find_element(By.ID, "generate").click()
        stage = wait_text(driver, "progress-stage", lambda t: t not in ("", "starting"), timeout=60)
        progress = float(driver.find_element(By.ID, "progress").get_attribute("value"))
        driver.find_element(By.ID, "cancel").click()
        end = wait_text(driver, "progress-stage", lambda t: t in ("cancelled", "done", "failed"), timeout=30)
        check(stage and end == "cancelled", f"progress shown (stage {stage}, {progress:.2f}) and the generation cancelled")
        driver.execute_script("document.getElementById('opt-best-of').value = 1;"
                              "document.getElementById('opt-size').value = '';")
        n = native(rmg, ["generate", "--seed", "3"])
        m = re.search(r"^fingerprint ([0-9a-f]{16})$", n.stdout, re.M)
        fp, err = generate(driver, 3)
        check(m and fp == m.group(1), f"after a cancel the next map is generated as native: {fp}", err or "")

        # -- an impossible setup shows the failure reason --------------------------------------------
        driver.find_element(By.ID, "builtin").click()
        wait_text(driver, "pack-name", lambda t: t == "built-in pack")
        n = native(rmg, ["generate", "--size", "S", "--players", "4", "--seed", "1"])
        reason = n.stderr.splitlines()[0].removeprefix("rmg generate: ") if n.stderr else ""
        fp, err = generate(driver, 1, **{"opt-size": "S", "opt-players": "4"})
        check(n.returncode == 1 and fp is None and reason and reason in err,
              "an impossible setup shows the library's reason", f"page {err!r}, native {reason!r}")
        driver.execute_script("document.getElementById('opt-size').value='';document.getElementById('opt-players').value=''")

        # -- the JS API, and the benchmark: the built-in template at M -------------------------------
        r = driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "rmg.generate(null, {size: 'M', seed: 1}).then(r => done({fp: r.fingerprint, n: r.h3m.length, w: r.warnings.length}),"
            " e => done({error: e.message}));")
        n = native(rmg, ["generate", "--size", "M", "--seed", "1"])
        m = re.search(r"^fingerprint ([0-9a-f]{16})$", n.stdout, re.M)
        check(m and r.get("fp") == m.group(1), f"rmg.generate(null, {{size: 'M', seed: 1}}) gives native's fingerprint {r}")
        # Other paths of the options: the SoD ruleset and .h3m edition, and the fairest of N.
        for opts, cli in (({"size": "M", "seed": 5, "game": "sod"}, ["--size", "M", "--seed", "5", "--game", "sod"]),
                          ({"size": "M", "seed": 2, "best_of": 3}, ["--size", "M", "--seed", "2", "--best-of", "3"]),
                          ({"size": "L", "seed": 6, "underground": True, "players": 2, "humans": 2, "monsters": "strong",
                            "water": "normal", "towns": {"1": "tower"}, "template": "Duet"},
                           ["--size", "L", "--seed", "6", "--underground", "--players", "2", "--humans", "2",
                            "--monsters", "strong", "--water", "normal", "--town", "1=tower", "--template", "Duet"])):
            r = driver.execute_async_script(
                "const done = arguments[arguments.length - 1];"
                "rmg.generate(null, arguments[0]).then(r => done({fp: r.fingerprint,"
                " h3m: btoa(Array.from(r.h3m, b => String.fromCharCode(b)).join(''))}), e => done({error: e.message}));",
                opts)
            out = os.path.join(work, "native.h3m")
            n = native(rmg, ["generate"] + cli + ["-o", out])
            m = re.search(r"^fingerprint ([0-9a-f]{16})$", n.stdout, re.M)
            with open(out, "rb") as fh:
                same = r.get("h3m") == base64.b64encode(fh.read()).decode()
            check(m and r.get("fp") == m.group(1) and same,
                  f"rmg.generate(null, {opts}) gives native's fingerprint and .h3m bytes ({r.get('fp')})",
                  f"native {m and m.group(1)}, page {r.get('fp') or r.get('error')}")
        times = driver.execute_async_script(
            "const done = arguments[arguments.length - 1]; const t = [];"
            "(async () => { for (let i = 0; i < 7; i++) { const s = performance.now();"
            " await rmg.generate(null, {size: 'M', seed: i + 1}); t.push(performance.now() - s); } done(t); })();")
        nt = []
        for i in range(7):
            out = native(rmg, ["generate", "--size", "M", "--seed", str(i + 1)]).stdout
            nt.append(float(re.search(r"^time +([0-9.]+) ms", out, re.M).group(1)))
        print(f"benchmark: the built-in template at M (seeds 1-7), in the page {sorted(times)[3]:.0f} ms median "
              f"(min {min(times):.0f}), native {sorted(nt)[3]:.0f} ms median (min {min(nt):.0f})")
        d = driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "rmg.check('version: 1\\nname: x\\ntemplates: [{name: T, zones: [{id: 1, kind: nonsense}]}]\\n').then(done, e => done({e: e.message}));")
        check(not d.get("ok") and (d.get("load_error") or d.get("messages")), "rmg.check() reports a bad pack", str(d)[:200])
        b = driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "rmg.balance(null, {size: 'M', seed: 1}).then(b => done(b.report.score), e => done(-1));")
        n = native(rmg, ["balance", "--size", "M", "--seed", "1", "--json"])
        nb = re.search(r'"score":\s*([0-9.]+)', n.stdout)
        check(nb and abs(float(nb.group(1)) - b) < 1e-9, f"rmg.balance() gives native's score {b}",
              n.stdout[:200] + n.stderr[:200])
    finally:
        driver.quit()
        server.shutdown()
        shutil.rmtree(work, ignore_errors=True)
    print(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
