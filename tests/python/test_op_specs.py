"""The op-spec table (tests/python/op_specs/*.py, one module per family of ops) run against
PyTorch 1.13: one test per row, as opspec.py describes."""
import importlib
import pkgutil

import op_specs
from gnntest import main
from opspec import make_test_class


def all_specs():
    rows = []
    for info in sorted(pkgutil.iter_modules(op_specs.__path__), key=lambda i: i.name):
        rows += importlib.import_module('op_specs.' + info.name).SPECS
    return rows


OpSpecs = make_test_class(all_specs())

if __name__ == '__main__':
    main()
