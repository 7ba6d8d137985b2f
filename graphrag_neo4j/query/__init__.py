"""Query methods behind one protocol (`base.QueryMethod`) and one registry (`registry`)."""
