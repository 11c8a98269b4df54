"""Data movement: conversion plans between layouts (and, from the ``smem`` work,
shared-memory access reports and layout choice)."""

from .conversion import ConversionPlan, Stage, plan_conversion
from .placement import PlanError

__all__ = ["ConversionPlan", "PlanError", "Stage", "plan_conversion"]
