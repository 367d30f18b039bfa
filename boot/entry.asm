; SPDX-License-Identifier: GPL-2.0-only
; 32-bit multiboot2 entry to 64-bit C.
;
; GRUB enters in 32-bit protected mode with paging off, EAX = magic,
; EBX = physical address of the boot information, and no stack.  We may
; have been loaded above our link address (relocatable tag), so every
; reference to our own data adds the displacement held in EBP.
;
; Boot page tables: the first 4 GiB identity-mapped with 2 MiB pages (the
; boot information and this code live there) and the kernel's 1 GiB window
; at KERNEL_VMA mapped to where GRUB put us.  arch/x86_64/paging.c
; replaces them.
%include "boot/layout.inc"

bits 32
section .boot.text progbits alloc exec nowrite align=16
global _start
_start:
	cli
	cld
	mov edi, eax			; magic, for kmain
	mov esi, ebx			; boot information, for kmain

	; Find the load displacement.  No stack yet: borrow the boot
	; information's reserved word (offset 4, zero by the spec) for the
	; return address of one call, then put the zero back.
	lea esp, [ebx + 8]
	call .here
.here:
	pop ebp
	mov dword [ebx + 4], 0
	sub ebp, .here
	lea esp, [ebp + boot_stack_top]

	cmp edi, MB2_BOOT_MAGIC
	jne .bad_magic
	test ebp, 0x1fffff
	jnz .bad_align

	; Long mode and NX: CPUID.80000001h:EDX bits 29 and 20.
	mov eax, 0x80000000
	cpuid
	cmp eax, 0x80000001
	jb .no_long_mode
	mov eax, 0x80000001
	cpuid
	test edx, 1 << 29
	jz .no_long_mode
	test edx, 1 << 20
	jz .no_nx

	call build_boot_tables

	mov eax, cr4
	or eax, 1 << 5			; PAE
	mov cr4, eax
	lea eax, [ebp + boot_pml4]
	mov cr3, eax
	mov ecx, 0xc0000080		; EFER
	rdmsr
	or eax, (1 << 8) | (1 << 11)	; LME, NXE
	wrmsr
	mov eax, cr0
	or eax, (1 << 31) | (1 << 16) | 1	; PG, WP, PE
	mov cr0, eax

	; The GDT descriptor holds an absolute address: patch in ours.
	lea eax, [ebp + boot_gdt]
	mov [ebp + boot_gdtr + 2], eax
	lgdt [ebp + boot_gdtr]
	push BOOT_CS
	lea eax, [ebp + long_mode]
	push eax
	retf

.bad_magic:
	lea eax, [ebp + msg_magic]
	jmp early_fail
.bad_align:
	lea eax, [ebp + msg_align]
	jmp early_fail
.no_long_mode:
	lea eax, [ebp + msg_lm]
	jmp early_fail
.no_nx:
	lea eax, [ebp + msg_nx]
	jmp early_fail

; Fill the boot tables (zeroed by the loader: they are NOBITS).
build_boot_tables:
	lea ebx, [ebp + boot_pdpt_low]
	or ebx, 3
	mov [ebp + boot_pml4], ebx
	lea ebx, [ebp + boot_pdpt_high]
	or ebx, 3
	mov [ebp + boot_pml4 + 511 * 8], ebx

	; pdpt_low[0..3] -> pd_low[0..3]; pd_low maps 0..4 GiB with 2 MiB pages.
	xor ecx, ecx
.pdpt:
	mov eax, ecx
	shl eax, 12
	lea eax, [ebp + boot_pd_low + eax]
	or eax, 3
	mov [ebp + boot_pdpt_low + ecx * 8], eax
	inc ecx
	cmp ecx, 4
	jb .pdpt
	xor ecx, ecx
.pd_low:
	mov eax, ecx
	shl eax, 21
	or eax, 0x83			; present, writable, 2 MiB
	mov [ebp + boot_pd_low + ecx * 8], eax
	mov eax, ecx
	shr eax, 11			; bits 32+ of the address
	mov [ebp + boot_pd_low + ecx * 8 + 4], eax
	inc ecx
	cmp ecx, 2048
	jb .pd_low

	; KERNEL_VMA is PML4 slot 511, PDPT slot 510: map 1 GiB there
	; to physical [displacement, displacement + 1 GiB).
	lea ebx, [ebp + boot_pd_high]
	or ebx, 3
	mov [ebp + boot_pdpt_high + 510 * 8], ebx
	xor ecx, ecx
.pd_high:
	mov eax, ecx
	shl eax, 21
	add eax, ebp
	or eax, 0x83
	mov [ebp + boot_pd_high + ecx * 8], eax
	inc ecx
	cmp ecx, 512
	jb .pd_high
	ret

; Print the message at EAX on COM1 and halt.  Bounded waits: a machine
; without a UART at 0x3f8 must not hang here any more than it would anyway.
early_fail:
	mov esi, eax
.next:
	lodsb
	test al, al
	jz .halt
	mov bl, al
	mov ecx, 100000
.wait:
	mov dx, 0x3fd
	in al, dx
	test al, 0x20
	jnz .send
	loop .wait
.send:
	mov al, bl
	mov dx, 0x3f8
	out dx, al
	jmp .next
.halt:
	hlt
	jmp .halt

bits 64
long_mode:
	mov ax, BOOT_DS
	mov ds, ax
	mov es, ax
	mov ss, ax
	xor eax, eax
	mov fs, ax
	mov gs, ax
	; 32-bit values carried into 64-bit mode: zero-extend them.
	mov edi, edi			; magic
	mov esi, esi			; boot information, physical
	mov edx, ebp			; load displacement
	mov rax, kernel_entry64
	jmp rax

section .boot.data progbits alloc noexec write align=16
boot_gdt:
	dq 0
	dq 0x00af9a000000ffff		; 64-bit code
	dq 0x00cf92000000ffff		; data
boot_gdt_end:
boot_gdtr:
	dw boot_gdt_end - boot_gdt - 1
	dd 0				; patched at run time
msg_magic:	db "hugezero: not booted by a multiboot2 loader (bad magic)", 13, 10, 0
msg_align:	db "hugezero: loaded at an address not 2 MiB aligned", 13, 10, 0
msg_lm:		db "hugezero: this CPU has no long mode (64-bit); cannot run", 13, 10, 0
msg_nx:		db "hugezero: this CPU has no NX bit; cannot run", 13, 10, 0

section .boot.bss nobits alloc noexec write align=4096
boot_pml4:	resb 4096
boot_pdpt_low:	resb 4096
boot_pdpt_high:	resb 4096
boot_pd_high:	resb 4096
boot_pd_low:	resb 4 * 4096
boot_stack:	resb 4096
boot_stack_top:

; The 64-bit half runs at its link address in the top 2 GiB.
section .text
extern kmain
extern bsp_stacks
global kernel_entry64
kernel_entry64:
	mov rsp, bsp_stacks + 4096 + 65536	; struct cpu_stacks: guard0, kernel
	xor ebp, ebp			; ends frame-pointer backtraces
	call kmain			; (magic, boot info, displacement)
.hang:
	cli
	hlt
	jmp .hang
