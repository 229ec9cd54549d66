"""``python -m i18n extract | update | check``: see :mod:`i18n.tools`."""

import sys

from i18n.tools import main

sys.exit(main(sys.argv[1:]))
