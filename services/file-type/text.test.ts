import { describe, expect, it } from 'vitest';
import { decodeText, interpreterOf, sniffText } from './text.js';

const utf8 = (s: string) => Buffer.from(s, 'utf8');

describe('decodeText', () => {
  it('follows a byte order mark: UTF-8, UTF-16 and UTF-32 in both byte orders', () => {
    const s = 'naïve café ✓ 😀';
    const be16 = Buffer.from(s, 'utf16le').swap16();
    const le32 = Buffer.alloc([...s].length * 4);
    for (const [i, ch] of [...s].entries()) le32.writeUInt32LE(ch.codePointAt(0)!, i * 4);
    const be32 = Buffer.from(le32).swap32();
    const cases: [Buffer, string, number][] = [
      [Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8(s)]), 'UTF-8', 3],
      [Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')]), 'UTF-16LE', 2],
      [Buffer.concat([Buffer.from([0xfe, 0xff]), be16]), 'UTF-16BE', 2],
      [Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), le32]), 'UTF-32LE', 4],
      [Buffer.concat([Buffer.from([0, 0, 0xfe, 0xff]), be32]), 'UTF-32BE', 4],
    ];
    for (const [bytes, encoding, bom] of cases)
      expect(decodeText(bytes), encoding).toEqual({ text: s, encoding, bom });
  });

  it('reads UTF-8 cut inside its last character, and falls back to windows-1252', () => {
    const cut = utf8('price: 5 €').subarray(0, -1);
    expect(decodeText(cut)).toMatchObject({ encoding: 'UTF-8', text: 'price: 5 ' });
    expect(decodeText(Buffer.from('caf\xe9 cr\xe8me', 'latin1'))).toMatchObject({
      encoding: 'windows-1252',
      text: 'café crème',
    });
  });

  it('refuses binary data: a NUL, or more than 1 % control characters', () => {
    expect(decodeText(utf8('text\0with a NUL'))).toBeNull();
    expect(decodeText(utf8(`${'a'.repeat(98)}\u0001\u0002`))).toBeNull();
    expect(decodeText(utf8(`${'a'.repeat(99)}\u0001`))).not.toBeNull();
    expect(decodeText(utf8('tabs\tand\r\nbreaks\fand \u001b[1mANSI\u001b[0m'))).not.toBeNull();
  });
});

describe('interpreterOf', () => {
  it.each([
    ['#!/bin/sh', 'sh'],
    ['#! /usr/bin/python3.12 -u', 'python3.12'],
    ['#!/usr/bin/env node', 'node'],
    ['#!/usr/bin/env -S deno run --allow-net', 'deno'],
    ['#!', null],
  ])('%s → %s', (line, interpreter) => {
    expect(interpreterOf(line)).toBe(interpreter);
  });
});

describe('sniffText', () => {
  it.each([
    ['#!/bin/bash\necho hi\n', 'sh', 0.9],
    ['#!/usr/bin/env python3\nprint(1)\n', 'py', 0.9],
    ['#!/usr/bin/env node\nconsole.log(1)\n', 'js', 0.9],
    ['#!/usr/bin/perl -w\nprint 1;\n', 'pl', 0.9],
    ['#!/usr/bin/env ruby\nputs 1\n', 'rb', 0.9],
    ['#!/usr/bin/env pwsh\nWrite-Host 1\n', 'ps1', 0.9],
    ['#!/usr/bin/awk -f\n{ print }\n', 'script', 0.9],
    ['<?php echo 1;', 'php', 0.9],
    ['<!doctype html><title>x</title>', 'html', 0.9],
    ['{"a": [1, 2, {"b": null}]}', 'json', 0.9],
    ['{"a": [1, 2, {"b": nu', 'json', 0.7],
    ['{"a":1}\n{"a":2}\n', 'ndjson', 0.8],
    ['@ECHO OFF\r\ndel *.*\r\n', 'bat', 0.8],
    ['a,b\n1,2\n3,4\n', 'csv', 0.6],
    ['a,b\n1,2\n3,4\n5,6\n7,8\n', 'csv', 0.7],
    ['a\tb\n1\t2\n3\t4\n', 'tsv', 0.6],
    ['{ this is prose in braces }', 'txt', 0.5],
    ['Just a note.\n', 'txt', 0.5],
  ])('%j → %s', (text, ext, confidence) => {
    expect(sniffText(utf8(text))).toMatchObject({ ext, confidence });
  });

  it('reports the interpreter, the encoding and the BOM', () => {
    expect(sniffText(utf8('#!/bin/zsh\n'))).toEqual({
      ext: 'sh',
      confidence: 0.9,
      encoding: 'UTF-8',
      bom: 0,
      interpreter: 'zsh',
    });
    const bom = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"a":1}', 'utf16le')]);
    expect(sniffText(bom)).toEqual({ ext: 'json', confidence: 0.9, encoding: 'UTF-16LE', bom: 2 });
  });

  it('finds nothing in binary data or white space', () => {
    expect(
      sniffText(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d])),
    ).toBeNull();
    expect(sniffText(utf8(' \n\t '))).toBeNull();
  });
});
