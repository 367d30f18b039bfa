; SPDX-License-Identifier: GPL-2.0-only
; The multiboot2 header.  It must lie 8-byte aligned in the first 32 KiB
; of the file; linker.ld puts .multiboot2 first in the first segment.
%include "boot/layout.inc"

section .multiboot2 progbits alloc noexec nowrite align=8
mb2_header:
	dd MB2_MAGIC
	dd 0				; architecture: i386 protected mode
	dd mb2_header_end - mb2_header
	dd -(MB2_MAGIC + 0 + (mb2_header_end - mb2_header))

	; Relocatable tag: on some UEFI machines firmware owns the memory at
	; our link address; GRUB may then load us elsewhere between 16 MiB
	; and 3 GiB, 2 MiB aligned, preferring the lowest address.  The boot
	; path (entry.asm) works out the displacement and maps accordingly.
	align 8
	dw 10, 0
	dd 24
	dd LOAD_PHYS			; min_addr
	dd 0xc0000000			; max_addr: stay below the PCI hole
	dd 0x200000			; align: one 2 MiB boot mapping per step
	dd 1				; preference: lowest

	align 8
	dw 0, 0				; end tag
	dd 8
mb2_header_end:
