"""Index-code generation: a layout's forward and inverse maps as Python, C, C++, CUDA
and Triton source (see ``docs/codegen.md``)."""
