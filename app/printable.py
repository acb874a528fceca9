"""Text made safe to show: any path may hold control characters, newlines or bytes that are not
UTF-8 (kept by Python as lone surrogates, which ImGui and terminals cannot take)."""


def printable(text: str) -> str:
    """``text`` on one line, each character that cannot be shown as itself written as its escape
    (``\\n``, ``\\x1b``, ``\\udcff``)."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
