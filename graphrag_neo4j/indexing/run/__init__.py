"""One indexing run's bookkeeping: its lock, failed batches, warnings and closing report."""
