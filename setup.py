"""The build step pyproject.toml cannot say: the site's templates, static files and translations
(kept at the checkout's top, where Django projects keep them) go into the wheel inside the
``abalone_site`` package (``abalone_site/{templates,static,locale}``), where the settings look for
them when the site runs from an installed package (docs/deploy.md, "Installing the package")."""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
#: The folders the wheel carries into ``abalone_site``, and the files of each it leaves out.
SITE_FILES = {"templates": (), "static": (), "locale": (".po", ".pot")}


class BuildWithSiteFiles(build_py):
    def run(self):
        super().run()
        target = Path(self.build_lib) / "abalone_site"
        for folder, left_out in SITE_FILES.items():
            for source in sorted((HERE / folder).rglob("*")):
                if (
                    not source.is_file()
                    or source.suffix in left_out
                    or "__pycache__" in source.parts
                ):
                    continue
                destination = target / source.relative_to(HERE)
                self.mkpath(str(destination.parent))
                self.copy_file(str(source), str(destination))


setup(cmdclass={"build_py": BuildWithSiteFiles})
