"""Helpers of the tutorials' summary scripts: a Markdown table written and
printed, and Debian's matplotlib without a display (None if missing)."""
import os


def writeTable(path, lines):
    """Write the table's lines to path and print them."""
    open(path, "w").write("\n".join(lines) + "\n")
    print("\n".join(lines))


def pyplot(tool, plotsDir):
    """matplotlib.pyplot on the Agg backend with plotsDir made, or None
    (tool says so)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("%s: no matplotlib, no plot" % tool)
        return None
    os.makedirs(plotsDir, exist_ok=True)
    return plt
