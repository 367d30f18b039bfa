; SPDX-License-Identifier: GPL-2.0-only
; The application processors' way from real mode to the kernel.
;
; A STARTUP IPI with vector VV starts a CPU in real mode at VV00:0000, so
; arch/x86_64/smpboot.c copies this blob to a page below 1 MiB and fills
; in its data (struct trampoline_data, at TD) first: the GDT and its
; descriptor, a far pointer to the 32-bit part, the page tables to turn
; paging on with (below 4 GiB: CR3 is loaded in 32-bit mode), and where to
; go in the kernel.  Then 16 -> 32 -> 64 bit, as Linux's
; arch/x86/realmode/rm/trampoline_64.S (trampoline_start, startup_32,
; startup_64), and a jump to the kernel's C entry at its virtual address,
; mapped by the same top-level entries as the kernel's own tables.
; APs are started one at a time: they share this page and its stack.

%define TD		8		; struct trampoline_data (smpboot.h)
%define TD_PTR32	(TD + 0)	; m16:32 for the far jump
%define TD_GDTR		(TD + 6)	; limit, base
%define TD_CR3		(TD + 12)
%define TD_ENTRY	(TD + 16)
%define TD_STACK	(TD + 24)
%define TD_ARG		(TD + 32)
%define TD_KCR3		(TD + 40)
%define TD_ALIVE	(TD + 48)
%define TD_SIZE		88
%define SEL_CODE32	0x08
%define SEL_DATA	0x10
%define SEL_CODE64	0x18

section .rodata
align 16
global trampoline_start, trampoline_end, trampoline_off32
bits 16
trampoline_start:
	jmp short .real
	times TD - ($ - trampoline_start) db 0
	times TD_SIZE db 0
.real:
	cli
	cld
	mov ax, cs
	mov ds, ax
	mov dword [TD_ALIVE], 1		; the SIPI arrived: for diagnostics
	xor ebx, ebx
	mov bx, ax
	shl ebx, 4			; this page's physical address
	o32 lgdt [TD_GDTR]
	mov eax, cr0
	or al, 1			; PE
	mov cr0, eax
	jmp far dword [TD_PTR32]

bits 32
tramp32:
	mov ax, SEL_DATA
	mov ds, ax
	mov es, ax
	mov ss, ax
	lea esp, [ebx + 4096]		; the top of this page
	mov eax, cr4
	or eax, 1 << 5			; PAE
	mov cr4, eax
	mov eax, [ebx + TD_CR3]
	mov cr3, eax
	mov ecx, 0xc0000080		; EFER
	rdmsr
	or eax, (1 << 8) | (1 << 11)	; LME, NXE
	wrmsr
	; INIT left CD and NW set (caches off): state CR0 whole, as
	; Linux's CR0_STATE, PE MP ET NE WP PG (AM aside).
	mov eax, 0x80010033
	mov cr0, eax
	lea eax, [ebx + (tramp64 - trampoline_start)]
	push SEL_CODE64
	push eax
	retf

bits 64
tramp64:
	mov ebx, ebx			; upper halves are undefined here
	mov rdi, [rbx + TD_ARG]
	mov rsi, [rbx + TD_KCR3]
	mov rsp, [rbx + TD_STACK]
	mov rax, [rbx + TD_ENTRY]
	jmp rax				; (arg, kernel CR3); never returns
trampoline_end:

align 4
trampoline_off32:
	dd tramp32 - trampoline_start
