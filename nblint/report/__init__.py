"""Rendering findings: text, JSON, SARIF, GitHub annotations, JUnit, the HTML report and its figures."""
