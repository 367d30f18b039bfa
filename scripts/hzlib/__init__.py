# SPDX-License-Identifier: GPL-2.0-only
"""Host-side tools of hugezero: boot images, QEMU, KTAP and log parsing."""
