"""The names of the extraction rows of `index --estimate`, which every method fills."""

EXTRACTION_ROW, GLEANING_ROW = "extraction", "gleaning"
