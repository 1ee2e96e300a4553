"""The op-spec table, one module per family of ops, each with a list SPECS of opspec.Spec
rows; test_op_specs.py collects every module of this package."""
