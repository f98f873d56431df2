// Electron: the main process owns the Sesame client; renderers ask it through IPC and never
// touch the socket (a sandboxed renderer cannot, and should not hold more than it needs).
//
// preload.cjs (contextIsolation on):
//   const { contextBridge, ipcRenderer } = require('electron');
//   contextBridge.exposeInMainWorld('sesame', {
//     idToken: () => ipcRenderer.invoke('sesame:idToken'),
//     state: () => ipcRenderer.invoke('sesame:state'),
//     onStateChanged: (listener) => {
//       const handler = (_event, state) => listener(state);
//       ipcRenderer.on('sesame:state', handler);
//       return () => ipcRenderer.off('sesame:state', handler);
//     },
//   });
const { app, BrowserWindow, ipcMain } = require('electron');
const path = require('node:path');
const { Sesame } = require('sesame-client');

const sesame = new Sesame({ clientName: 'my-electron-app' });

// Hand out the token string only (not the client): a renderer sends it to your backend.
ipcMain.handle('sesame:idToken', async () => (await sesame.idToken()).token);
ipcMain.handle('sesame:state', () => sesame.state());

app.whenReady().then(() => {
  const window = new BrowserWindow({ webPreferences: { preload: path.join(__dirname, 'preload.cjs') } });
  const stop = sesame.onStateChanged((state) => window.webContents.send('sesame:state', state));
  window.on('closed', stop);
  window.loadFile('index.html');
});

app.on('will-quit', () => sesame.close());
