"""The build backend of the rmg bindings (PEP 517 and PEP 660), in the standard library alone.

Why not setuptools: pip builds in an isolated environment and would download setuptools into
it, which fails offline. This backend has no requirements, so ``pip install ./bindings/python``
works without a network: the package is pure Python (ctypes), a wheel is just a zip of
``rmg/`` with metadata. ``pip install -e`` gets a wheel holding a .pth file instead.
"""

from __future__ import annotations

import base64
import hashlib
import io
import re
import tarfile
import zipfile
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

HERE = Path(__file__).resolve().parent
PACKAGE = "rmg"


def _project() -> Dict[str, str]:
    """name, version, description and requires-python from pyproject.toml's [project] table."""
    text = (HERE / "pyproject.toml").read_text(encoding="utf-8")
    table = text.split("[project]", 1)[1].split("\n[", 1)[0]
    fields = {}
    for key in ("name", "version", "description", "requires-python"):
        match = re.search(rf'^{re.escape(key)}\s*=\s*"([^"]*)"', table, re.MULTILINE)
        if not match:
            raise ValueError(f"pyproject.toml: [project] has no {key}")
        fields[key] = match.group(1)
    return fields


def _extras() -> List[Tuple[str, List[str]]]:
    text = (HERE / "pyproject.toml").read_text(encoding="utf-8")
    if "[project.optional-dependencies]" not in text:
        return []
    table = text.split("[project.optional-dependencies]", 1)[1].split("\n[", 1)[0]
    extras = []
    for name, deps in re.findall(r"^(\w+)\s*=\s*\[([^\]]*)\]", table, re.MULTILINE):
        extras.append((name, re.findall(r'"([^"]+)"', deps)))
    return extras


def _dist_info() -> str:
    p = _project()
    return f"{p['name']}-{p['version']}.dist-info"


def _metadata() -> str:
    p = _project()
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {p['name']}",
        f"Version: {p['version']}",
        f"Summary: {p['description']}",
        f"Requires-Python: {p['requires-python']}",
    ]
    for extra, deps in _extras():
        lines.append(f"Provides-Extra: {extra}")
        lines += [f'Requires-Dist: {dep}; extra == "{extra}"' for dep in deps]
    lines.append("Description-Content-Type: text/markdown")
    readme = HERE / "README.md"
    body = readme.read_text(encoding="utf-8") if readme.exists() else ""
    return "\n".join(lines) + "\n\n" + body


_WHEEL = "Wheel-Version: 1.0\nGenerator: rmg_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n"


def _package_files() -> List[Path]:
    root = HERE / PACKAGE
    return sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc")


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def _write_wheel(directory: str, contents: List[Tuple[str, bytes]]) -> str:
    p = _project()
    info = _dist_info()
    contents = contents + [
        (f"{info}/METADATA", _metadata().encode("utf-8")),
        (f"{info}/WHEEL", _WHEEL.encode("utf-8")),
        (f"{info}/top_level.txt", f"{PACKAGE}\n".encode("utf-8")),
    ]
    record = "\n".join([_record_line(n, d) for n, d in contents] + [f"{info}/RECORD,,"]) + "\n"
    filename = f"{p['name']}-{p['version']}-py3-none-any.whl"
    with zipfile.ZipFile(Path(directory) / filename, "w", zipfile.ZIP_DEFLATED) as wheel:
        for name, data in contents + [(f"{info}/RECORD", record.encode("utf-8"))]:
            wheel.writestr(zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0)), data)
    return filename


# ---- PEP 517 hooks -------------------------------------------------------------------------


def get_requires_for_build_wheel(config_settings: Optional[Dict[str, Any]] = None) -> List[str]:
    return []


def get_requires_for_build_sdist(config_settings: Optional[Dict[str, Any]] = None) -> List[str]:
    return []


def get_requires_for_build_editable(config_settings: Optional[Dict[str, Any]] = None) -> List[str]:
    return []


def prepare_metadata_for_build_wheel(metadata_directory: str, config_settings: Optional[Dict[str, Any]] = None) -> str:
    info = Path(metadata_directory) / _dist_info()
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(_metadata(), encoding="utf-8")
    (info / "WHEEL").write_text(_WHEEL, encoding="utf-8")
    return info.name


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_wheel(
    wheel_directory: str, config_settings: Optional[Dict[str, Any]] = None, metadata_directory: Optional[str] = None
) -> str:
    files = [(p.relative_to(HERE).as_posix(), p.read_bytes()) for p in _package_files()]
    return _write_wheel(wheel_directory, files)


def build_editable(
    wheel_directory: str, config_settings: Optional[Dict[str, Any]] = None, metadata_directory: Optional[str] = None
) -> str:
    return _write_wheel(wheel_directory, [(f"{PACKAGE}_editable.pth", f"{HERE}\n".encode("utf-8"))])


def build_sdist(sdist_directory: str, config_settings: Optional[Dict[str, Any]] = None) -> str:
    p = _project()
    base = f"{p['name']}-{p['version']}"
    files = [HERE / "pyproject.toml", HERE / "README.md", Path(__file__).resolve()] + _package_files()
    filename = f"{base}.tar.gz"
    with tarfile.open(Path(sdist_directory) / filename, "w:gz") as sdist:
        for path in files:
            sdist.add(str(path), arcname=f"{base}/{path.relative_to(HERE).as_posix()}")
        pkg_info = _metadata().encode("utf-8")
        entry = tarfile.TarInfo(f"{base}/PKG-INFO")
        entry.size = len(pkg_info)
        sdist.addfile(entry, io.BytesIO(pkg_info))
    return filename
