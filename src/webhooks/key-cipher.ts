import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';

const VERSION = 'v1';

/** AES-256-GCM under ENCRYPTION_KEY for secrets kept at rest: `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
@Injectable()
export class KeyCipher {
  constructor(private readonly config: AppConfig) {}

  encrypt(plaintext: string, associatedData: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.config.encryptionKey, iv);
    cipher.setAAD(Buffer.from(associatedData, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
  }

  /** `associatedData` binds the ciphertext to its row, so a ciphertext copied to another row does not decrypt. */
  decrypt(sealed: string, associatedData: string): string {
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (version !== VERSION) throw new Error(`unknown ciphertext version ${version}`);
    const decipher = createDecipheriv('aes-256-gcm', this.config.encryptionKey, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(associatedData, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }
}
