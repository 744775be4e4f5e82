"""Packaging hook: ships the top-level data folders rules/, selectors/ and templates/ inside the wheel.

They stay at the top of the repository (where people edit them) and are copied into app/_data/ when a
wheel is built; app/resources.py looks in both places.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

DATA_FOLDERS = ("rules", "selectors", "templates")


class BuildWithData(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        for name in DATA_FOLDERS:
            target = Path(self.build_lib) / "app" / "_data" / name
            shutil.copytree(Path(__file__).parent / name, target, dirs_exist_ok=True)


setup(cmdclass={"build_py": BuildWithData})
